import { Command, Option } from 'clipanion';
import { routes, type ReviewView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { renderStructured } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class ReviewShowCommand extends SvcCommand {
  static override paths = [['review', 'show']];
  static override usage = Command.Usage({
    category: 'Reviews',
    description: 'Show one review: what is asked, its state and its decision',
    details: `
      Asks the review workflow itself (its \`request\` query), so the answer is current, also after the decision. A signup review never shows the credentials it carries.
    `,
    examples: [
      ['A signup', '$0 review show registration-review:password:alice'],
      ['A room, as JSON', '$0 review show room-review:room-1234 --json'],
    ],
  });

  id = Option.String({ required: true, name: 'id' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const view = await client.get<ReviewView>(routes.review(this.id));
    this.context.stdout.write(this.json ? renderStructured(view, 'json') : describeReview(view));
    return 0;
  }
}

/** `label: value` lines, the ones that apply to this review. */
export function describeReview(view: ReviewView): string {
  const lines: Array<[string, string | undefined]> = [
    ['review', view.reviewId],
    ['kind', view.kind],
    ...(view.kind === 'registration'
      ? ([
          ['mode', view.mode],
          ['username', view.username],
        ] as Array<[string, string]>)
      : ([
          ['room', `${view.roomName} (${view.roomId})`],
          ['owner', view.ownerId],
        ] as Array<[string, string]>)),
    ['state', view.state],
    ['requested', view.requestedAt],
    ['expires', view.expiresAt],
    ['decided by', view.decision ? `${view.decision.reviewer} at ${view.decision.decidedAt}` : undefined],
    ['reason', view.decision?.reason],
    ['user id', view.kind === 'registration' ? view.userId : undefined],
  ];
  const shown = lines.filter((line): line is [string, string] => line[1] !== undefined);
  const width = Math.max(...shown.map(([label]) => label.length)) + 1;
  return shown.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}\n`).join('');
}
