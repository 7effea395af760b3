/** Integrator names seen in queue pages, to label cases and suggest filters (the admin API has no integrator list). */
export const integratorNames = new Map<string, string>();

export function rememberIntegrator(integratorId: string, name: string): void {
  integratorNames.set(integratorId, name);
}
