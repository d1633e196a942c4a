// What a caught value says, for logs and answers: its message when it is an Error, else its string
// form (a library may reject with anything). The value itself travels on as a `cause`.
export function failureMessage(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}
