// Tic-tac-toe for boardgame.io: the same rules as Firebreak's tests/titles/tictactoe.py (cells 0-8 row by row,
// three in a line wins, a full board is a draw), written as boardgame.io's own tutorial writes it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { INVALID_MOVE } = require('boardgame.io/core');

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/** True when one player holds three cells in a line. */
export function isVictory(cells) {
  return LINES.some(([a, b, c]) => cells[a] !== null && cells[a] === cells[b] && cells[a] === cells[c]);
}

export const TicTacToe = {
  name: 'tic-tac-toe',
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (!Number.isInteger(id) || id < 0 || id > 8 || G.cells[id] !== null) {
        return INVALID_MOVE;
      }
      G.cells[id] = playerID;
    },
  },
  endIf: ({ G, ctx }) => {
    if (isVictory(G.cells)) {
      return { winner: ctx.currentPlayer };
    }
    if (G.cells.every((c) => c !== null)) {
      return { draw: true };
    }
  },
};
