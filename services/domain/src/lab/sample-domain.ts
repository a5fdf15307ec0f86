/** The domain preference of a sample (spec 2 section 7): its key, from the account's domain and the tests. */
import type { OrderType, SpecimenKind } from '../enums';
import {
  DEFAULT_SAMPLE_DOMAIN,
  DUAL_TEST_TYPE,
  isSubsequentOrder,
  type SampleRequisition,
} from './sample-rules';

/** The key of the domain preference that gives a sample its work order and product data. */
export interface DomainPreferenceKey {
  domain: string;
  /** the one test type ordered, or DUAL for both */
  testType: string;
  orderType: OrderType;
  /** the sample kind */
  tissueType: SpecimenKind;
  specimenType: string;
}

/**
 * The domain of an account: the first known domain (other than the default) named as a whole word in the
 * account name (case-insensitive), else PSNL.
 */
export function sampleDomainOf(
  accountName: string | null | undefined,
  knownDomains: readonly string[] = [],
): string {
  const words = new Set(
    (accountName ?? '')
      .toUpperCase()
      .split(/[^A-Z0-9]+/)
      .filter(Boolean),
  );
  return (
    knownDomains.find((d) => d !== DEFAULT_SAMPLE_DOMAIN && words.has(d.toUpperCase())) ??
    DEFAULT_SAMPLE_DOMAIN
  );
}

export function domainPreferenceKey(
  req: SampleRequisition,
  type: SpecimenKind,
  specimenType: string,
  knownDomains: readonly string[] = [],
): DomainPreferenceKey {
  const types = [...new Set(req.testOrders.map((t) => t.testType))];
  return {
    domain: sampleDomainOf(req.accountName, knownDomains),
    testType: types.length === 1 ? types[0] : DUAL_TEST_TYPE,
    orderType: isSubsequentOrder(req) ? 'SUBSEQUENT_ORDER' : 'INITIAL_ORDER',
    tissueType: type,
    specimenType,
  };
}
