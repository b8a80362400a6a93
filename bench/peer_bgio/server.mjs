// boardgame.io's own server (lobby REST API + socket.io, in-memory storage) serving tic-tac-toe.
// Usage: node server.mjs PORT   (prints "ready" once listening; run it with NODE_ENV=production to keep its
// per-move logging off, as the bench does)
import { createRequire } from 'node:module';
import { TicTacToe } from './game.mjs';

const require = createRequire(import.meta.url);
const { Server, Origins } = require('boardgame.io/server');

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: node server.mjs PORT');
  process.exit(2);
}
const server = Server({ games: [TicTacToe], origins: [Origins.LOCALHOST] });
await server.run(port);
console.log('ready');
