/** What each error code means to a person (shown above the server's precise message), and the notice around it. */
export const errors = {
  titles: {
    invalid_argument: 'Please check what you entered',
    limit_exceeded: 'A limit was reached',
    payload_too_large: 'That is too large',
    rate_limited: 'Too many attempts',
    signup_disabled: 'Signing up this way is turned off',
    review_pending: 'Waiting for review',
    review_rejected: 'Your request was turned down',
    account_banned: 'This account is banned',
    busy: 'The service is busy: try again in a moment',
    resource_exhausted: 'The server is doing as much of this as it can: try again in a moment',
    unavailable: 'Not available',
    deadline_exceeded: 'That took too long: try again',
    bad_gateway: 'Another server did not answer as expected',
    internal: 'Something went wrong on our side',
  },
  offline: 'Cannot reach the server: check your connection',
  serverAnswered: 'The server answered {{status}} {{statusText}}',
  tryAgain: 'You can try again {{when}}.',
  requestId: 'Request id: {{id}}',
};
