import { Command, Option } from 'clipanion';
import { routes, type ReviewSummary } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { renderStructured, renderTable } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class ReviewListCommand extends SvcCommand {
  static override paths = [['review', 'list']];
  static override usage = Command.Usage({
    category: 'Reviews',
    description: 'List signups and rooms under review',
    details: `
      Lists the review workflows of this deployment's Temporal task queue from Temporal's visibility store, filtered by the search attributes \`SvcReviewKind\`, \`SvcReviewMode\` and \`SvcReviewState\`. The store is eventually consistent: a review started a moment ago may take a moment to appear. \`--state pending\` lists only running reviews.

      The same list in the Temporal UI: the query \`SvcReviewKind="registration" AND SvcReviewState="pending"\`.
    `,
    examples: [
      ['Signups waiting for a decision', '$0 review list --kind registration --state pending'],
      ['Every review, as JSON', '$0 review list --json'],
    ],
  });

  kind = Option.String('--kind', { description: 'registration|room' });
  mode = Option.String('--mode', { description: 'password|email|webauthn|oauth2|room' });
  state = Option.String('--state', { description: 'pending|approved|rejected|expired' });
  limit = Option.String('--limit', { description: 'How many reviews (1..1000, default 50)' });
  json = Option.Boolean('--json', false, { description: 'Print JSON instead of a table' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const query = new URLSearchParams();
    for (const [key, value] of [['kind', this.kind], ['mode', this.mode], ['state', this.state], ['limit', this.limit]] as const) {
      if (value !== undefined) query.set(key, value);
    }
    const path = query.size > 0 ? `${routes.reviews}?${query.toString()}` : routes.reviews;
    const { reviews } = await client.get<{ reviews: ReviewSummary[] }>(path);
    if (this.json) {
      this.context.stdout.write(renderStructured(reviews, 'json'));
      return 0;
    }
    if (reviews.length === 0) {
      this.context.stdout.write('no reviews match\n');
      return 0;
    }
    this.context.stdout.write(
      renderTable(
        ['review', 'kind', 'mode', 'subject', 'state', 'started'],
        reviews.map((review) => [review.reviewId, review.kind, review.mode, review.subject, stateText(review), review.startTime]),
      ),
    );
    return 0;
  }
}

/** A review whose workflow did not complete says so: its state is what it was when it stopped. */
function stateText(review: ReviewSummary): string {
  return review.status === 'RUNNING' || review.status === 'COMPLETED' ? review.state : `${review.state} (${review.status.toLowerCase()})`;
}
