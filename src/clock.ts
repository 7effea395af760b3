/** The time source. Injected so tests can stand exactly at the edges of the signature window. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
