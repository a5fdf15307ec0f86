import { KIT_MSG } from '@onco/domain';

/** Texts of the Test Kits screen (keys `kits.*`); spec texts exact (spec 2 sections 2.10, 8). */
export const kitsEn = {
  kits: {
    title: 'Test Kits',
    subtitle: 'Request sample collection kits and follow what you requested',
    empty: KIT_MSG.empty,
    received: KIT_MSG.received,
    failed: KIT_MSG.failed,
    requestTitle: 'Request Kits',
    submit: 'Request Kits',
    col: {
      testKitType: 'Test Kit Type',
      numberOfKits: 'Number of Kits',
      recipient: 'Recipient',
      shippingRequest: 'Shipping Request',
      createdOn: 'Requested On',
    },
    field: {
      account: 'Account',
      testKitType: 'Test Kit Type',
      numberOfKits: 'Number of Kits',
      recipient: 'Recipient',
      institute: 'Institute',
      street: 'Street',
      suite: 'Suite',
      city: 'City',
      state: 'State',
      postalCode: 'Zip Code',
      shippingRequest: 'Shipping Request',
    },
    shipping: { GROUND: 'Ground', TWO_DAY: 'Two-day', OVER_NIGHT: 'Overnight' },
  },
};
