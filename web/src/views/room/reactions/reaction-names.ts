/** The reaction set as the page shows it: each name's emoji and an English label for screen readers. */
import { REACTIONS, REACTION_EMOJI, type ReactionName } from '../../../../../contracts/room/reactions.js';

export { REACTIONS, REACTION_EMOJI, type ReactionName };

export const REACTION_LABEL: Readonly<Record<ReactionName, string>> = {
  thumbs_up: 'Thumbs up',
  heart: 'Heart',
  laugh: 'Laugh',
  wow: 'Wow',
  sad: 'Sad',
  clap: 'Clap',
  fire: 'Fire',
  party: 'Party',
};
