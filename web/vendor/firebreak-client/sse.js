// Server-Sent Events read from a fetch body (the WHATWG "event stream" parsing rules), so a stream can send
// headers (Authorization, Last-Event-ID), which a browser's EventSource cannot, and so it runs in Node 20+ too.
/** The messages of a text/event-stream body, in order; comments and empty messages are skipped. Reading ends
 * when `signal` aborts (the body is cancelled, which closes its connection). */
export async function* readEvents(body, signal) {
    const decoder = new TextDecoder();
    const reader = body.getReader();
    // Aborting a fetch's signal is not always carried to a body being read (undici may drop the Request's own,
    // dependent signal once it is collected), so an abort cancels the reader itself.
    const cancel = () => void reader.cancel().catch(() => undefined);
    signal?.addEventListener('abort', cancel, { once: true });
    let buffer = '';
    let event = '';
    let data = [];
    let id;
    let retry;
    let first = true;
    try {
        for (;;) {
            const { value, done } = await reader.read();
            buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
            if (first && buffer.length > 0) {
                if (buffer.charCodeAt(0) === 0xfeff)
                    buffer = buffer.slice(1); // a leading byte-order mark is dropped
                first = false;
            }
            let end;
            const lineEnd = /\r\n|\r|\n/g;
            let start = 0;
            while ((end = lineEnd.exec(buffer)) !== null) {
                if (end[0] === '\r' && end.index === buffer.length - 1 && !done)
                    break; // a \r\n may be split across reads
                const line = buffer.slice(start, end.index);
                start = end.index + end[0].length;
                if (line === '') {
                    if (data.length > 0)
                        yield { event: event || 'message', data: data.join('\n'), id, retry };
                    event = '';
                    data = [];
                    retry = undefined;
                    continue;
                }
                if (line.startsWith(':'))
                    continue; // a comment (keep-alive)
                const colon = line.indexOf(':');
                const field = colon < 0 ? line : line.slice(0, colon);
                let text = colon < 0 ? '' : line.slice(colon + 1);
                if (text.startsWith(' '))
                    text = text.slice(1);
                if (field === 'event')
                    event = text;
                else if (field === 'data')
                    data.push(text);
                else if (field === 'id' && !text.includes('\0'))
                    id = text;
                else if (field === 'retry' && /^\d+$/.test(text))
                    retry = Number(text);
            }
            buffer = buffer.slice(start);
            if (done)
                return; // an unterminated last message is not dispatched
        }
    }
    finally {
        signal?.removeEventListener('abort', cancel);
        await reader.cancel().catch(() => undefined); // closes the connection when the reader stops early
        reader.releaseLock();
    }
}
