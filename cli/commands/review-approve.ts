import { Command, Option } from 'clipanion';
import { routes, type ReviewDecisionRequest, type ReviewView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { SvcCommand } from '../svc-command.js';

export class ReviewApproveCommand extends SvcCommand {
  static override paths = [['review', 'approve']];
  static override usage = Command.Usage({
    category: 'Reviews',
    description: 'Approve a signup (the account is created) or a room (it becomes active)',
    details: `
      Sends the \`approve\` signal to the review workflow, as the Temporal UI's "Send a Signal" does, with you (\`cli:<user>@<host>\`) as the reviewer, and waits until the workflow has recorded it. The first decision wins: a review already decided is refused with \`conflict\`.
    `,
    examples: [['Approve a signup', '$0 review approve registration-review:password:alice --reason "known member"']],
  });

  id = Option.String({ required: true, name: 'id' });
  reason = Option.String('--reason', { description: 'Why (optional)' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const body: ReviewDecisionRequest = this.reason !== undefined ? { reason: this.reason } : {};
    const view = await client.post<ReviewView>(routes.reviewApprove(this.id), body);
    this.context.stdout.write(`review ${view.reviewId} ${view.state} by ${view.decision?.reviewer ?? '?'}\n`);
    return 0;
  }
}
