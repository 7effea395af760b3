/** The interface description's version (spec "Versioning"); also every event's apiVersion. */
export const API_VERSION = '0.2.0';
