// The generated types are per title (issue 50): compiled by `npm run check` (tsc --strict, examples.tsconfig.json),
// never run. Each `@ts-expect-error` must stay an error: tsc fails the check if the line it marks compiles.
import type { Action, GameEvent, Match, View, components } from '../src/index.js';

type Schemas = components['schemas'];

// A London action is one of London's types, with the fields its type takes.
export const develop: Schemas['LondonAction'] = { type: 'develop' };
export const play: Schemas['LondonAction'] = { type: 'play', card: 'paupers-1' };
// @ts-expect-error: London has no action of that type (it is Great Fire's)
export const fromTheOtherTitle: Schemas['LondonAction'] = { type: 'keepHand' };
// @ts-expect-error: no title has that type
export const unknown: Action = { type: 'noSuchAction' };
// @ts-expect-error: play names a card of London's deck
export const noSuchCard: Schemas['LondonAction'] = { type: 'play', card: 'no-such-card' };

// Narrowing a view on `title` gives that title's fields.
export function money(match: Match, seat: number): number | undefined {
  const view: View = match.view;
  if (view.title === 'london') {
    const own: Schemas['LondonView'] = view;
    return own.players.find((player) => player.seat === seat)?.money;
  }
  const fire: Schemas['GreatfireView'] = view;
  // @ts-expect-error: a Great Fire view has no money
  return fire.players[seat]?.money;
}

// Narrowing an action or an event on `type` gives that type's fields.
export function cardOf(action: Action): string | undefined {
  return action.type === 'play' ? action.card : undefined;
}

export function drawn(events: GameEvent[]): number {
  return events.filter((event) => event.type === 'drew').length;
}
