import type { LabModels } from '../models';

/** What every use case of the lab takes first, as requisitions' take RequisitionDeps: its models. */
export interface LabDeps {
  models: LabModels;
}
