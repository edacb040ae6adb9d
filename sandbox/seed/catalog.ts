/**
 * The fixed shape of the seeded organization: its linen catalog, customers, departments, what each department
 * receives and how much, delivery and billing habits, and units. Ids and quantities are drawn later from the
 * seed; names here are stable so that demos and tests can refer to them.
 */
import type { Weekday } from '../model.ts';

export interface ItemSpec {
  sku: string;
  name: string;
  category: string | null;
  unit_of_measure: string;
  weight_lb: number | null;
  /** Clean-bin content the item ships in. */
  content: 'towels' | 'sheets' | 'garments' | 'mixed_linen';
  /** Pack size used to round suggested orders. */
  pack: number;
}

export const ITEMS: readonly ItemSpec[] = [
  {
    sku: 'BT-2754',
    name: 'Bath Towel',
    category: 'Towels',
    unit_of_measure: 'each',
    weight_lb: 1.0,
    content: 'towels',
    pack: 12,
  },
  {
    sku: 'HT-1630',
    name: 'Hand Towel',
    category: 'Towels',
    unit_of_measure: 'each',
    weight_lb: 0.3,
    content: 'towels',
    pack: 24,
  },
  {
    sku: 'WC-1212',
    name: 'Washcloth',
    category: 'Towels',
    unit_of_measure: 'dozen',
    weight_lb: 0.1,
    content: 'towels',
    pack: 48,
  },
  {
    sku: 'PT-3060',
    name: 'Pool Towel',
    category: 'Towels',
    unit_of_measure: 'each',
    weight_lb: 1.5,
    content: 'towels',
    pack: 12,
  },
  {
    sku: 'FS-6690',
    name: 'Flat Sheet',
    category: 'Bedding',
    unit_of_measure: 'each',
    weight_lb: 1.4,
    content: 'sheets',
    pack: 12,
  },
  {
    sku: 'FT-6690',
    name: 'Fitted Sheet',
    category: 'Bedding',
    unit_of_measure: 'each',
    weight_lb: 1.3,
    content: 'sheets',
    pack: 12,
  },
  {
    sku: 'PC-2030',
    name: 'Pillowcase',
    category: 'Bedding',
    unit_of_measure: 'each',
    weight_lb: 0.3,
    content: 'sheets',
    pack: 24,
  },
  {
    sku: 'BB-7090',
    name: 'Bath Blanket',
    category: 'Bedding',
    unit_of_measure: 'each',
    weight_lb: 1.8,
    content: 'sheets',
    pack: 12,
  },
  {
    sku: 'PG-0100',
    name: 'Patient Gown',
    category: 'Patient Apparel',
    unit_of_measure: 'each',
    weight_lb: 0.6,
    content: 'garments',
    pack: 12,
  },
  {
    sku: 'ST-0200',
    name: 'Scrub Top',
    category: 'Scrubs',
    unit_of_measure: 'each',
    weight_lb: 0.5,
    content: 'garments',
    pack: 12,
  },
  {
    sku: 'SP-0200',
    name: 'Scrub Pants',
    category: 'Scrubs',
    unit_of_measure: 'each',
    weight_lb: 0.6,
    content: 'garments',
    pack: 12,
  },
  {
    sku: 'UP-3436',
    name: 'Underpad',
    category: 'Patient Care',
    unit_of_measure: 'each',
    weight_lb: 0.5,
    content: 'mixed_linen',
    pack: 24,
  },
  {
    sku: 'NP-2020',
    name: 'Napkin',
    category: 'Food & Beverage',
    unit_of_measure: 'dozen',
    weight_lb: 0.1,
    content: 'mixed_linen',
    pack: 48,
  },
  {
    sku: 'TC-90132',
    name: 'Tablecloth 90x132',
    category: 'Food & Beverage',
    unit_of_measure: 'each',
    weight_lb: 2.4,
    content: 'mixed_linen',
    pack: 6,
  },
  {
    sku: 'RB-0001',
    name: 'Bathrobe',
    category: 'Spa',
    unit_of_measure: 'each',
    weight_lb: 2.8,
    content: 'garments',
    pack: 6,
  },
  {
    sku: 'SS-0001',
    name: 'Spa Slippers',
    category: 'Spa',
    unit_of_measure: 'pair',
    weight_lb: null,
    content: 'mixed_linen',
    pack: 24,
  },
  {
    sku: 'MH-1800',
    name: 'Microfiber Mop Head',
    category: null,
    unit_of_measure: 'each',
    weight_lb: 0.2,
    content: 'mixed_linen',
    pack: 48,
  },
];

/** Weight used for bin weights when an item has no catalog weight. */
export const FALLBACK_PIECE_LB = 0.25;

export type ParKind = 'pieces' | 'cart_loads' | 'none' | 'fallback';

/** One item a department (or the customer as a whole) receives. */
export interface LineSpec {
  item: string;
  /** Typical daily pieces; for `fallback` lines the customer-wide par is used instead. */
  level: number;
  par: ParKind;
  /** Par quantity when the par is in cart loads. */
  cartLoads?: number;
  /**
   * Chronically short: well under par but for a few days of every four-week cycle. The chronic lines recover in
   * turn (this is the line's week of the cycle, 0-3), so some shortfall streak is always running.
   */
  shortWeek?: number;
  /**
   * Chronically over par but for a few days of every four-week cycle; the over-fill signal reads this many recent
   * deliveries.
   */
  overDays?: number;
}

function L(item: string, level: number, extra: Partial<LineSpec> = {}): LineSpec {
  return { item, level, par: 'pieces', ...extra };
}

export interface DeptSpec {
  name: string;
  costCenter: string | null;
  lines: LineSpec[];
}

export interface BillingSpec {
  cadence: 'weekly' | 'monthly';
  mode: 'consolidated' | 'per_department';
  termsDays: number | null;
  taxRate: number;
  surchargeRate: number;
  /** Days from sending to payment. */
  payDays: [number, number];
  payKinds: readonly ('card' | 'ach' | 'check')[];
}

export interface UnitSpec {
  name: string;
  building: string | null;
  floor: string | null;
  unitType: string | null;
  costCenter: string | null;
  active: boolean;
}

export interface CustomerSpec {
  code: string;
  name: string;
  isGroup: boolean;
  parent: string | null;
  currency: 'usd' | 'cad';
  /** Days before 2025-01-01 the account was opened. */
  ageDays: number;
  centsPerLb: number;
  deliveryDays: readonly Weekday[];
  departments: DeptSpec[];
  /** Customer-wide deliveries (department_id null) and the weekdays they run. */
  wide: { days: readonly Weekday[]; lines: LineSpec[] } | null;
  /** Customer-wide par rows with no customer-wide deliveries (department rows fall back to them). */
  wideParOnly: { item: string; par: number }[];
  billing: BillingSpec | null;
  units: UnitSpec[];
  signers: { name: string; title: string | null }[];
}

const EVERY_DAY: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

export const CUSTOMERS: readonly CustomerSpec[] = [
  {
    code: 'MH',
    name: 'Mercy Health',
    isGroup: true,
    parent: null,
    currency: 'usd',
    ageDays: 2310,
    centsPerLb: 0,
    deliveryDays: [],
    departments: [],
    wide: null,
    wideParOnly: [],
    billing: null,
    units: [],
    signers: [],
  },
  {
    code: 'MGH',
    name: 'Mercy General Hospital',
    isGroup: false,
    parent: 'MH',
    currency: 'usd',
    ageDays: 2290,
    centsPerLb: 64,
    deliveryDays: EVERY_DAY,
    departments: [
      {
        name: 'ICU',
        costCenter: 'MGH-4010',
        lines: [
          L('Flat Sheet', 140),
          L('Fitted Sheet', 90),
          L('Pillowcase', 110),
          L('Bath Blanket', 70),
          L('Patient Gown', 120),
          L('Bath Towel', 80, { shortWeek: 0 }),
          L('Washcloth', 150),
          L('Underpad', 90, { par: 'none' }),
        ],
      },
      {
        name: 'Emergency',
        costCenter: 'MGH-4020',
        lines: [
          L('Flat Sheet', 180),
          L('Pillowcase', 120),
          L('Patient Gown', 200),
          L('Bath Blanket', 110),
          L('Underpad', 60, { par: 'none' }),
          L('Hand Towel', 60),
        ],
      },
      {
        name: 'Surgery',
        costCenter: 'MGH-4030',
        lines: [L('Bath Blanket', 150), L('Flat Sheet', 90), L('Patient Gown', 110), L('Hand Towel', 140)],
      },
      {
        name: 'Maternity',
        costCenter: null,
        lines: [
          L('Flat Sheet', 100),
          L('Fitted Sheet', 70),
          L('Pillowcase', 80),
          L('Bath Towel', 90),
          L('Washcloth', 160),
          L('Patient Gown', 70),
          L('Underpad', 120, { par: 'none' }),
          L('Bath Blanket', 60),
        ],
      },
      {
        name: 'Med-Surg 4 West',
        costCenter: 'MGH-4350',
        lines: [
          L('Flat Sheet', 160),
          L('Fitted Sheet', 110),
          L('Pillowcase', 130, { shortWeek: 1 }),
          L('Bath Towel', 100),
          L('Hand Towel', 90),
          L('Washcloth', 180),
          L('Patient Gown', 140),
        ],
      },
      {
        name: 'Environmental Services',
        costCenter: null,
        lines: [L('Microfiber Mop Head', 240, { par: 'cart_loads', cartLoads: 2 }), L('Hand Towel', 40)],
      },
    ],
    wide: { days: ['mon', 'wed', 'fri'], lines: [L('Scrub Top', 420), L('Scrub Pants', 420)] },
    wideParOnly: [],
    billing: {
      cadence: 'weekly',
      mode: 'consolidated',
      termsDays: 30,
      taxRate: 0,
      surchargeRate: 0.035,
      payDays: [18, 34],
      payKinds: ['ach'],
    },
    units: [
      {
        name: '4 West Med-Surg',
        building: 'North Tower',
        floor: '4',
        unitType: 'Med-Surg',
        costCenter: 'MGH-4350',
        active: true,
      },
      {
        name: 'ICU North',
        building: 'North Tower',
        floor: '2',
        unitType: 'Critical Care',
        costCenter: 'MGH-4010',
        active: true,
      },
      {
        name: 'Labor & Delivery',
        building: "Women's Pavilion",
        floor: '1',
        unitType: 'Maternity',
        costCenter: null,
        active: true,
      },
      {
        name: 'Emergency Department',
        building: 'Main',
        floor: '1',
        unitType: null,
        costCenter: 'MGH-4020',
        active: true,
      },
      {
        name: 'Surgical Services',
        building: 'Main',
        floor: '3',
        unitType: 'Perioperative',
        costCenter: 'MGH-4030',
        active: true,
      },
      {
        name: '5 East (closed)',
        building: 'North Tower',
        floor: '5',
        unitType: 'Med-Surg',
        costCenter: null,
        active: false,
      },
    ],
    signers: [
      { name: 'Dana Whitfield', title: 'Charge Nurse' },
      { name: 'Luis Ortega', title: 'EVS Supervisor' },
      { name: 'Priya Natarajan', title: null },
      { name: 'Tom Becker', title: 'Receiving Clerk' },
    ],
  },
  {
    code: 'MWSC',
    name: 'Mercy West Surgery Center',
    isGroup: false,
    parent: 'MH',
    currency: 'usd',
    ageDays: 1460,
    centsPerLb: 66,
    deliveryDays: WEEKDAYS,
    departments: [
      {
        name: 'Pre-Op',
        costCenter: 'MWSC-210',
        lines: [L('Patient Gown', 60), L('Bath Blanket', 50), L('Pillowcase', 40)],
      },
      {
        name: 'Operating Room',
        costCenter: 'MWSC-220',
        lines: [L('Scrub Top', 140), L('Scrub Pants', 140), L('Bath Blanket', 60), L('Flat Sheet', 50)],
      },
      {
        name: 'PACU',
        costCenter: null,
        lines: [L('Bath Blanket', 70, { overDays: 14 }), L('Flat Sheet', 40), L('Pillowcase', 35), L('Underpad', 30)],
      },
      {
        name: 'Sterile Processing',
        costCenter: 'MWSC-240',
        lines: [L('Hand Towel', 120), L('Scrub Top', 30), L('Scrub Pants', 30)],
      },
    ],
    wide: null,
    wideParOnly: [],
    billing: {
      cadence: 'monthly',
      mode: 'per_department',
      termsDays: 30,
      taxRate: 0,
      surchargeRate: 0.035,
      payDays: [20, 36],
      payKinds: ['ach'],
    },
    units: [
      {
        name: 'Pre-Op Bay',
        building: null,
        floor: '1',
        unitType: 'Perioperative',
        costCenter: 'MWSC-210',
        active: true,
      },
      { name: 'OR Core', building: null, floor: '1', unitType: 'Perioperative', costCenter: 'MWSC-220', active: true },
      { name: 'PACU', building: null, floor: '1', unitType: null, costCenter: null, active: true },
    ],
    signers: [
      { name: 'Rachel Kim', title: 'OR Materials Lead' },
      { name: 'Marcus Hale', title: null },
    ],
  },
  {
    code: 'SLMC',
    name: "St. Luke's Medical Center",
    isGroup: false,
    parent: null,
    currency: 'usd',
    ageDays: 1820,
    centsPerLb: 61,
    deliveryDays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
    departments: [
      {
        name: 'ICU',
        costCenter: 'SL-7100',
        lines: [
          L('Flat Sheet', 120, { shortWeek: 2 }),
          L('Fitted Sheet', 80),
          L('Pillowcase', 90),
          L('Patient Gown', 100),
          L('Bath Blanket', 60),
          L('Washcloth', 120),
        ],
      },
      {
        name: 'Emergency',
        costCenter: 'SL-7200',
        lines: [L('Flat Sheet', 150), L('Patient Gown', 170), L('Bath Blanket', 90), L('Pillowcase', 100)],
      },
      {
        name: 'Oncology',
        costCenter: null,
        lines: [
          L('Flat Sheet', 90),
          L('Fitted Sheet', 60),
          L('Pillowcase', 70),
          L('Patient Gown', 0, { par: 'fallback' }),
          L('Bath Towel', 60),
        ],
      },
      {
        name: 'Pediatrics',
        costCenter: 'SL-7400',
        lines: [
          L('Flat Sheet', 70),
          L('Fitted Sheet', 50),
          L('Pillowcase', 50),
          L('Patient Gown', 0, { par: 'fallback' }),
          L('Bath Towel', 50),
          L('Washcloth', 80),
        ],
      },
      {
        name: 'Labor & Delivery',
        costCenter: 'SL-7500',
        lines: [
          L('Flat Sheet', 80),
          L('Bath Towel', 70),
          L('Underpad', 100),
          L('Patient Gown', 60),
          L('Washcloth', 100),
        ],
      },
    ],
    wide: { days: ['tue', 'fri'], lines: [L('Scrub Top', 260), L('Scrub Pants', 260)] },
    wideParOnly: [{ item: 'Patient Gown', par: 90 }],
    billing: {
      cadence: 'weekly',
      mode: 'consolidated',
      termsDays: 30,
      taxRate: 0,
      surchargeRate: 0.04,
      payDays: [28, 52],
      payKinds: ['ach', 'check'],
    },
    units: [
      { name: 'ICU', building: 'Tower A', floor: '3', unitType: 'Critical Care', costCenter: 'SL-7100', active: true },
      {
        name: 'Pediatrics 2',
        building: 'Tower A',
        floor: '2',
        unitType: 'Pediatric',
        costCenter: 'SL-7400',
        active: true,
      },
      {
        name: 'Oncology Infusion',
        building: 'Cancer Center',
        floor: null,
        unitType: 'Outpatient',
        costCenter: null,
        active: true,
      },
      {
        name: 'Birth Center',
        building: 'Tower B',
        floor: '1',
        unitType: 'Maternity',
        costCenter: 'SL-7500',
        active: true,
      },
    ],
    signers: [
      { name: 'Angela Moreau', title: 'Unit Secretary' },
      { name: "Kevin O'Brien", title: 'Materials Handler' },
      { name: 'Jo Tran', title: null },
    ],
  },
  {
    code: 'HH',
    name: 'Harborview Hotel',
    isGroup: false,
    parent: null,
    currency: 'usd',
    ageDays: 980,
    centsPerLb: 72,
    deliveryDays: EVERY_DAY,
    departments: [
      {
        name: 'Housekeeping',
        costCenter: 'HK-100',
        lines: [
          L('Flat Sheet', 320, { par: 'cart_loads', cartLoads: 4 }),
          L('Pillowcase', 380),
          L('Bath Towel', 300),
          L('Hand Towel', 260),
          L('Washcloth', 240),
        ],
      },
      {
        name: 'Food & Beverage',
        costCenter: 'FB-200',
        lines: [L('Napkin', 420, { shortWeek: 3 }), L('Tablecloth 90x132', 60)],
      },
      {
        name: 'Spa',
        costCenter: null,
        lines: [
          L('Bathrobe', 45, { overDays: 10 }),
          L('Spa Slippers', 40, { par: 'none' }),
          L('Bath Towel', 80),
          L('Hand Towel', 60),
        ],
      },
    ],
    wide: { days: ['fri', 'sat', 'sun'], lines: [L('Pool Towel', 150)] },
    wideParOnly: [],
    billing: {
      cadence: 'monthly',
      mode: 'per_department',
      termsDays: null,
      taxRate: 0.0825,
      surchargeRate: 0.03,
      payDays: [4, 16],
      payKinds: ['card'],
    },
    units: [],
    signers: [
      { name: 'Sofia Alvarez', title: 'Executive Housekeeper' },
      { name: 'Ben Carter', title: 'Banquet Captain' },
      { name: 'Mei Lin', title: null },
    ],
  },
  {
    code: 'LRC',
    name: 'Lakeshore Rehabilitation Centre',
    isGroup: false,
    parent: null,
    currency: 'cad',
    ageDays: 640,
    centsPerLb: 58,
    deliveryDays: WEEKDAYS,
    departments: [
      {
        name: 'Inpatient Rehab',
        costCenter: 'LRC-01',
        lines: [
          L('Flat Sheet', 70),
          L('Fitted Sheet', 50),
          L('Pillowcase', 50),
          L('Bath Blanket', 30),
          L('Patient Gown', 40),
          L('Underpad', 40),
        ],
      },
      {
        name: 'Hydrotherapy',
        costCenter: null,
        lines: [L('Pool Towel', 90, { par: 'none' }), L('Bath Towel', 60), L('Hand Towel', 40)],
      },
      {
        name: 'Residential Care',
        costCenter: 'LRC-03',
        lines: [
          L('Flat Sheet', 60),
          L('Fitted Sheet', 40),
          L('Pillowcase', 40),
          L('Bath Towel', 50),
          L('Washcloth', 70),
          L('Underpad', 50),
        ],
      },
    ],
    wide: null,
    wideParOnly: [],
    billing: {
      cadence: 'monthly',
      mode: 'consolidated',
      termsDays: 30,
      taxRate: 0.13,
      surchargeRate: 0.025,
      payDays: [22, 40],
      payKinds: ['check'],
    },
    units: [
      {
        name: 'West Wing Rehab',
        building: 'West Wing',
        floor: '2',
        unitType: 'Rehabilitation',
        costCenter: 'LRC-01',
        active: true,
      },
      { name: 'Aquatic Therapy', building: null, floor: 'LL', unitType: null, costCenter: null, active: true },
      {
        name: 'Lakeview Residence',
        building: 'Residence',
        floor: '1',
        unitType: 'Long-term care',
        costCenter: 'LRC-03',
        active: true,
      },
    ],
    signers: [
      { name: 'Claire Tremblay', title: 'Nursing Aide' },
      { name: 'Omar Haddad', title: null },
    ],
  },
];

/** Per-customer piece weights that differ from the catalog default. */
export const WEIGHT_OVERRIDES: Readonly<Record<string, Record<string, number>>> = {
  HH: { 'Bath Towel': 1.3, 'Hand Towel': 0.4 },
  SLMC: { 'Patient Gown': 0.7 },
  LRC: { 'Bath Blanket': 2.1 },
};
