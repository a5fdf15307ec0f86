import type { ReferenceModels } from '../models';

/** What every use case of reference takes first, as requisitions' take RequisitionDeps: its models. */
export interface ReferenceDeps {
  models: ReferenceModels;
}
