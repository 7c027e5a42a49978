/**
 * A simulation request from the workbench (or a script on the API) checked by the one schema
 * (requests/simulation.ts: the form and `crawlbench simulate` use it too), with the simulator's
 * defaults filled in, before anything runs: every refusal names its field, so the form shows
 * it where it belongs.
 */
import { listPolicies } from '../policies/registry.js';
import type { SimulationDto, SimulationRequest } from './contract.js';
import { checkRequest } from './request-check.js';
import { simulationRequestSchema } from '../simulator/request-schema.js';

export { SOURCE_ID } from '../simulator/request-schema.js';

export type CheckedSimulationRequest = SimulationDto['request'];

/** The simulator's policies (the one registry), in its order. */
export function simulatorPolicies(): string[] {
  return listPolicies({ simulator: true }).map((p) => p.name);
}

export function parseSimulationRequest(raw: SimulationRequest): CheckedSimulationRequest {
  return checkRequest(simulationRequestSchema(simulatorPolicies()), raw, 'a simulation request') as CheckedSimulationRequest;
}
