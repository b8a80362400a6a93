// The event-stream parser on bodies cut at awkward places (no service needed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEvents } from '../dist/index.js';

function body(chunks) {
  const encoder = new TextEncoder();
  return new ReadableStream({ start(controller) {
    for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    controller.close();
  } });
}

async function all(chunks) {
  const out = [];
  for await (const message of readEvents(body(chunks))) out.push(message);
  return out;
}

test('messages, ids, comments and multi-line data, whatever the line ends and chunking', async () => {
  const text = ': ping\r\nid: 1-0\r\nevent: yourTurn\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: 2-0\nevent: matchEnded\ndata: {}\n\n';
  for (const size of [1, 2, 3, 7, text.length]) {
    const chunks = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    const got = await all(chunks);
    assert.deepEqual(got.map((m) => [m.event, m.id, m.data]),
      [['yourTurn', '1-0', '{"a":\n1}'], ['matchEnded', '2-0', '{}']], `chunks of ${size}`);
  }
});

test('a multi-byte character split between chunks, a message with no event name, an unfinished last one', async () => {
  const bytes = new TextEncoder().encode('data: Лондон\n\ndata: cut');
  const got = await all([bytes.slice(0, 8), bytes.slice(8)]);
  assert.deepEqual(got.map((m) => [m.event, m.data]), [['message', 'Лондон']]);
});
