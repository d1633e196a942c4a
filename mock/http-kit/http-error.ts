// The failure a route throws to answer with a status and a JSON `{error}`: anything else that
// reaches the error funnel is the server's own fault and is answered as a 500.
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(readonly status: number, message: string) {
    super(message);
  }
}
