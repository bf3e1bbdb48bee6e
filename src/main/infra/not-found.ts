/**
 * The sentence for a 404 from the service, naming what is missing. The published API answers one of its `Error404`
 * codes; it has no code per account kind, so an unknown external or internal account comes back as
 * REFERENCE_NOT_FOUND (docs/real-service.md) and the request's path tells which kind it was. The older sandbox codes
 * (EXTERNAL_ACCOUNT_NOT_FOUND, INTERNAL_ACCOUNT_NOT_FOUND) read the same way, so a service still sending them is clear.
 */
export function notFoundSentence(serviceCode: string | undefined, path: string): string {
  switch (serviceCode) {
    case 'TRANSACTION_NOT_FOUND':
      return 'The service has no such transaction.'
    case 'USER_NOT_FOUND':
      return 'The service has no such customer: it may have been deleted.'
    case 'QUOTE_NOT_FOUND':
      return 'The service has no such quote: it may have expired.'
    case 'EXTERNAL_ACCOUNT_NOT_FOUND':
      return 'The service has no such external account: it may have been deleted.'
    case 'INTERNAL_ACCOUNT_NOT_FOUND':
      return 'The service has no such internal account.'
    case 'REFERENCE_NOT_FOUND':
      return referenceSentence(path)
    default:
      return 'The service has no such item.'
  }
}

function referenceSentence(path: string): string {
  if (/\/transfer-out$/.test(path)) {
    return 'The service does not know the source internal account or the destination external account of this transfer.'
  }
  if (/\/external-accounts(\/|$)/.test(path)) {
    return 'The service has no such external account: it may have been deleted.'
  }
  if (/\/internal-accounts(\/|$)/.test(path)) return 'The service has no such internal account.'
  return 'The service has no item with an id this request refers to.'
}
