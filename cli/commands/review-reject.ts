import { Command, Option } from 'clipanion';
import { routes, type ReviewDecisionRequest, type ReviewView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { SvcCommand } from '../svc-command.js';

export class ReviewRejectCommand extends SvcCommand {
  static override paths = [['review', 'reject']];
  static override usage = Command.Usage({
    category: 'Reviews',
    description: 'Reject a signup or a room, with a reason',
    details: `
      Sends the \`reject\` signal to the review workflow with you (\`cli:<user>@<host>\`) as the reviewer and waits until it is recorded. A rejected signup creates no account; a rejected room stays for its owner to read and delete. A review already decided is refused with \`conflict\`.
    `,
    examples: [['Reject a room', '$0 review reject room-review:room-1234 --reason "spam"']],
  });

  id = Option.String({ required: true, name: 'id' });
  reason = Option.String('--reason', { required: true, description: 'Why (required)' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const body: ReviewDecisionRequest = { reason: this.reason };
    const view = await client.post<ReviewView>(routes.reviewReject(this.id), body);
    this.context.stdout.write(`review ${view.reviewId} ${view.state} by ${view.decision?.reviewer ?? '?'}\n`);
    return 0;
  }
}
