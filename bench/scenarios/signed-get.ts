/** A signed GET under load: whoami, get-associated-person-details, and the bare baseline. */
import { fetchSample, type LoadSpec } from '../lib/load.js';
import { signedGetHeaders, type Key } from '../lib/signing.js';

export const GET_CONNECTIONS = 50;

/** GETs are not replay-guarded: one signature serves a whole run, made afresh before each run (60 s window). */
export function signedGet(label: string, baseUrl: string, pathAndQuery: string, key: Key): LoadSpec {
  const url = `${baseUrl}${pathAndQuery}`;
  let headers = signedGetHeaders(key, pathAndQuery);
  return {
    label,
    connections: GET_CONNECTIONS,
    options: () => {
      headers = signedGetHeaders(key, pathAndQuery);
      return { url, headers };
    },
    sample: () => fetchSample(url, signedGetHeaders(key, pathAndQuery)),
  };
}
