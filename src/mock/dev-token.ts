/**
 * The token the mock accepts when none is configured. It is not a secret: it is printed in the
 * startup line and the README so a frontend can be wired up at once.
 */
export const DEV_TOKEN = 'plantstore-dev-token';
