// The store client's HTTP/1.1 response reader: every framing, any split of the bytes, and clear
// errors for answers that break the protocol.
import { Http1ProtocolError, Http1ResponseParser } from '../../../../server/src/store/rest/http1-response-parser';

/** Feeds `text` in pieces of `size` bytes and returns what the parser completed. */
function parse(text: string, size: number) {
  const parser = new Http1ResponseParser(1024 * 1024);
  const bytes = Buffer.from(text, 'utf8');
  let response;
  for (let start = 0; start < bytes.length; start += size) response = parser.push(bytes.subarray(start, start + size)) ?? response;
  return response;
}

const SPLITS = [1, 2, 3, 7, 64, 100000];

describe('Http1ResponseParser', () => {
  it.each(SPLITS)('reads a Content-Length body split every %i bytes', (size) => {
    const response = parse('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"result":"é"}', size);
    expect(response).toEqual({ status: 200, body: Buffer.from('{"result":"é"}'), keepAlive: true });
  });

  it.each(SPLITS)('reads a chunked body with extensions and trailers split every %i bytes', (size) => {
    const response = parse('HTTP/1.1 400 Bad Request\r\ntransfer-encoding: chunked\r\n\r\n4;x=y\r\n{"er\r\nB\r\nror":"bad"}\r\n0\r\nX-Trailer: 1\r\n\r\n', size);
    expect(response?.status).toBe(400);
    expect(response?.body.toString()).toBe('{"error":"bad"}');
  });

  it('skips an interim 100 Continue and honours Connection: close', () => {
    const response = parse('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}', 5);
    expect(response).toEqual({ status: 200, body: Buffer.from('{}'), keepAlive: false });
  });

  it('reads a body framed by the connection closing, and HTTP/1.0 defaults to close', () => {
    const parser = new Http1ResponseParser(1024 * 1024);
    expect(parser.push(Buffer.from('HTTP/1.0 200 OK\r\n\r\n{"res'))).toBeUndefined();
    expect(parser.push(Buffer.from('ult":1}'))).toBeUndefined();
    expect(parser.end()).toEqual({ status: 200, body: Buffer.from('{"result":1}'), keepAlive: false });
  });

  it('reads one response after another on the same connection', () => {
    const parser = new Http1ResponseParser(1024 * 1024);
    expect(parser.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na'))?.body.toString()).toBe('a');
    expect(parser.push(Buffer.from('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'))).toEqual({ status: 401, body: Buffer.alloc(0), keepAlive: true });
  });

  it.each([
    ['a status line that is not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n', /status line/],
    ['a Content-Length that is not a number', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /Content-Length/],
    ['a chunk size that is not hexadecimal', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /chunk size/],
    ['a chunk longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n', /longer than its size/],
    ['bytes after the response', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab', /after the end/],
  ])('refuses %s', (_case, text, message) => {
    expect(() => parse(text, 1000)).toThrow(Http1ProtocolError);
    expect(() => parse(text, 1000)).toThrow(message);
  });

  it('refuses a head that never ends within 64 KiB', () => {
    const parser = new Http1ResponseParser(1024 * 1024);
    expect(() => parser.push(Buffer.from(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70 * 1024)}`))).toThrow(/over 64 KiB/);
  });

  it('says when the connection closed before or during a response', () => {
    expect(() => new Http1ResponseParser(1024 * 1024).end()).toThrow(/without a response/);
    const parser = new Http1ResponseParser(1024 * 1024);
    parser.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(() => parser.end()).toThrow(/in the middle of a response/);
  });
});
