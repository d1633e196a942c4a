// What went wrong with an admin API call, in a sentence: the server's own message from Strapi's
// error shape (a 400 says which field is wrong), else the fetch client's.
export function failureMessage(failure: unknown): string {
  return (failure as { response?: { data?: { error?: { message?: string } } } }).response?.data?.error?.message ?? String(failure);
}
