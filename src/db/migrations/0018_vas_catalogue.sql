-- Seeds the VAS catalogue created by 0017: the four services, their categories (networks, cable
-- operators, electricity distribution companies) and the data and cable products. This is only the
-- starting catalogue: operators change prices, commissions and products through the admin API.
-- Ids and created_at follow the published catalogue; amounts are kobo, commissions naira/percent.

INSERT INTO vas_services (id, name, identifier, description, created_at, updated_at) VALUES
  ('61e985180e69308aa37a7a94', 'Mobile Recharge', 'AIRTIME', 'Airtime Recharge',         '2022-01-20T15:51:52.311Z', '2022-01-20T15:51:52.311Z'),
  ('61e9854bbce8e444a497663e', 'DATA PURCHASE',   'DATA',    'Data bundle subscription', '2022-01-20T15:52:43.000Z', '2022-01-20T15:52:43.000Z'),
  ('61e9857bbce8e444a4976641', 'CABLE TV',        'CABLETV', 'Cable tv subscription',    '2022-01-20T15:53:31.000Z', '2022-01-20T15:53:31.000Z'),
  ('61e985a3bce8e444a4976643', 'UTILITY BILLS',   'UTILITY', 'Power and Disco bills',    '2022-01-20T15:54:11.000Z', '2022-01-20T15:54:11.000Z');

-- Airtime: the buyer chooses the amount, from N50 to N50,000.
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e988830e69308aa37a7a99', '61e985180e69308aa37a7a94', 'MTN',      'MTN',      '68075467e1c44b9bf8d23749', false, 'Mtn Airtime',      '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:06:27.000Z', '2022-01-20T16:06:27.000Z'),
  ('61e9896abce8e444a4976648', '61e985180e69308aa37a7a94', 'AIRTEL',   'AIRTEL',   '68075467e1c44b9bf8d23749', false, 'Airtel Airtime',   '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:10:18.000Z', '2022-01-20T16:10:18.000Z'),
  ('61e9898cbce8e444a497664b', '61e985180e69308aa37a7a94', 'ETISALAT', 'ETISALAT', '68075467e1c44b9bf8d23749', false, 'Etisalat Airtime', '', '{"flatAmount":0,"percentageAmount":4.0,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:10:52.000Z', '2022-01-20T16:10:52.000Z'),
  ('61e9892e0e69308aa37a7a9c', '61e985180e69308aa37a7a94', 'GLO',      'GLO',      '68075467e1c44b9bf8d23749', false, 'Glo Airtime',      '', '{"flatAmount":0,"percentageAmount":3.5,"minCap":null,"maxCap":null}', 5000, 5000000, '2022-01-20T16:09:18.000Z', '2022-01-20T16:09:18.000Z');

-- Data: the bundle fixes the amount.
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e989f20e69308aa37a7a9f', '61e9854bbce8e444a497663e', 'MTN',                'MTN',      '68075467e1c44b9bf8d23749', true, 'Mtn Data',           '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:12:34.000Z', '2022-01-20T16:12:34.000Z'),
  ('61e98a4dbce8e444a4976651', '61e9854bbce8e444a497663e', 'AIRTEL',             'AIRTEL',   '68075467e1c44b9bf8d23749', true, 'Airtel Data',        '', '{"flatAmount":0,"percentageAmount":3.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:14:05.000Z', '2022-01-20T16:14:05.000Z'),
  ('61e98a67bce8e444a4976654', '61e9854bbce8e444a497663e', 'ETISALAT',           'ETISALAT', '68075467e1c44b9bf8d23749', true, 'Etisalat Data',      '', '{"flatAmount":0,"percentageAmount":4.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:14:31.000Z', '2022-01-20T16:14:31.000Z'),
  ('61e98a31bce8e444a497664e', '61e9854bbce8e444a497663e', 'GLO',                'GLO',      '68075467e1c44b9bf8d23749', true, 'Glo Data',           '', '{"flatAmount":0,"percentageAmount":3.5,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:13:37.000Z', '2022-01-20T16:13:37.000Z'),
  ('6502e9a236208a4de6d1b2ac', '61e9854bbce8e444a497663e', 'MTN-COOPERATE-DATA', 'MTN-DATA', '68075467e1c44b9bf8d23749', true, 'Mtn Corporate Data', '', '{"flatAmount":0,"percentageAmount":2.5,"minCap":null,"maxCap":null}', 100, 10000000, '2023-09-14T11:08:18.000Z', '2023-09-14T11:08:18.000Z');

-- Cable TV: the bouquet fixes the amount (except the one-off Top Up).
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e98b3562d9b6a917f9302a', '61e9857bbce8e444a4976641', 'DSTV BILL', 'DSTV',      '68075467e1c44b9bf8d23749', true, 'DStv Subscription',      '', '{"flatAmount":0,"percentageAmount":1.5,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:17:57.000Z', '2022-01-20T16:17:57.000Z'),
  ('61e98b6462d9b6a917f9302d', '61e9857bbce8e444a4976641', 'GOTV',      'GOTV',      '68075467e1c44b9bf8d23749', true, 'GOtv Subscription',      '', '{"flatAmount":0,"percentageAmount":1.5,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:18:44.000Z', '2022-01-20T16:18:44.000Z'),
  ('61e98b8a90dbbfc905f48f07', '61e9857bbce8e444a4976641', 'STARTIMES', 'STARTIMES', '68075467e1c44b9bf8d23749', true, 'StarTimes Subscription', '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 100, 10000000, '2022-01-20T16:19:22.000Z', '2022-01-20T16:19:22.000Z');

-- Utility: one category per electricity distribution company; the buyer chooses the amount, from
-- N500 to N1,000,000. Some commissions are capped (maxCap, naira per sale).
INSERT INTO vas_categories (id, service_id, name, identifier, vendor, is_fixed_amount, description, logo_url, provider_commission, min_amount_kobo, max_amount_kobo, created_at, updated_at) VALUES
  ('61e98bf962d9b6a917f93030', '61e985a3bce8e444a4976643', 'BEDC',  'BENIN',        '68075467e1c44b9bf8d23749', false, 'Benin Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:21:13.000Z', '2022-01-20T16:21:13.000Z'),
  ('61e98c2090dbbfc905f48f0a', '61e985a3bce8e444a4976643', 'EKEDC', 'EKO',          '68075467e1c44b9bf8d23749', false, 'Eko Electric Prepaid/Postpaid',           '', '{"flatAmount":0,"percentageAmount":0.8,"minCap":null,"maxCap":100}', 50000, 100000000, '2022-01-20T16:21:52.000Z', '2022-01-20T16:21:52.000Z'),
  ('61e98c4390dbbfc905f48f0d', '61e985a3bce8e444a4976643', 'AEDC',  'ABUJA',        '68075467e1c44b9bf8d23749', false, 'Abuja Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":100}', 50000, 100000000, '2022-01-20T16:22:27.000Z', '2022-01-20T16:22:27.000Z'),
  ('61e98c5f90dbbfc905f48f10', '61e985a3bce8e444a4976643', 'EEDC',  'ENUGU',        '68075467e1c44b9bf8d23749', false, 'Enugu Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":1.2,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:22:55.000Z', '2022-01-20T16:22:55.000Z'),
  ('61e98c7790dbbfc905f48f13', '61e985a3bce8e444a4976643', 'IBEDC', 'IBADAN',       '68075467e1c44b9bf8d23749', false, 'Ibadan Electric Prepaid/Postpaid',        '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:23:19.000Z', '2022-01-20T16:23:19.000Z'),
  ('61e98ca5ab69182f326e6db6', '61e985a3bce8e444a4976643', 'IKEDC', 'IKEJA',        '68075467e1c44b9bf8d23749', false, 'Ikeja Electric Prepaid/Postpaid',         '', '{"flatAmount":0,"percentageAmount":0.8,"minCap":null,"maxCap":100}', 50000, 100000000, '2022-01-20T16:24:05.000Z', '2022-01-20T16:24:05.000Z'),
  ('61e98cc6ab69182f326e6db9', '61e985a3bce8e444a4976643', 'JEDC',  'JOS',          '68075467e1c44b9bf8d23749', false, 'Jos Electric Prepaid/Postpaid',           '', '{"flatAmount":0,"percentageAmount":1.2,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:24:38.000Z', '2022-01-20T16:24:38.000Z'),
  ('61e98ceeab69182f326e6dbc', '61e985a3bce8e444a4976643', 'KAEDC', 'KADUNA',       '68075467e1c44b9bf8d23749', false, 'Kaduna Electric Prepaid/Postpaid',        '', '{"flatAmount":0,"percentageAmount":1.2,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:25:18.000Z', '2022-01-20T16:25:18.000Z'),
  ('61e98d0bab69182f326e6dbf', '61e985a3bce8e444a4976643', 'KEDCO', 'KANO',         '68075467e1c44b9bf8d23749', false, 'Kano Electric Prepaid/Postpaid',          '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:25:47.000Z', '2022-01-20T16:25:47.000Z'),
  ('61e98d28ab69182f326e6dc2', '61e985a3bce8e444a4976643', 'PHEDC', 'PORTHARCOURT', '68075467e1c44b9bf8d23749', false, 'Port Harcourt Electric Prepaid/Postpaid', '', '{"flatAmount":0,"percentageAmount":1.0,"minCap":null,"maxCap":150}', 50000, 100000000, '2022-01-20T16:26:16.000Z', '2022-01-20T16:26:16.000Z'),
  ('61e98d43ab69182f326e6dc5', '61e985a3bce8e444a4976643', 'YEDC',  'YOLA',         '68075467e1c44b9bf8d23749', false, 'Yola Electric Prepaid/Postpaid',          '', '{"flatAmount":0,"percentageAmount":1.5,"minCap":null,"maxCap":null}', 50000, 100000000, '2022-01-20T16:26:43.000Z', '2022-01-20T16:26:43.000Z');

-- Data bundles, per network, cheapest first.
INSERT INTO vas_products (category_id, bundle_code, name, amount_kobo, duration, is_amount_fixed, position) VALUES
  -- MTN
  ('61e989f20e69308aa37a7a9f', 'mtn-110mb-1d',  'MTN 110MB Daily',     10000,   '1 day',   true, 1),
  ('61e989f20e69308aa37a7a9f', 'mtn-230mb-1d',  'MTN 230MB Daily',     20000,   '1 day',   true, 2),
  ('61e989f20e69308aa37a7a9f', 'mtn-1gb-1d',    'MTN 1GB Daily',       35000,   '1 day',   true, 3),
  ('61e989f20e69308aa37a7a9f', 'mtn-1500mb-7d', 'MTN 1.5GB Weekly',    100000,  '1 week',  true, 4),
  ('61e989f20e69308aa37a7a9f', 'mtn-2gb-30d',   'MTN 2GB Monthly',     150000,  '1 month', true, 5),
  ('61e989f20e69308aa37a7a9f', 'mtn-3gb-30d',   'MTN 3GB Monthly',     200000,  '1 month', true, 6),
  ('61e989f20e69308aa37a7a9f', 'mtn-7gb-30d',   'MTN 7GB Monthly',     350000,  '1 month', true, 7),
  ('61e989f20e69308aa37a7a9f', 'mtn-10gb-30d',  'MTN 10GB Monthly',    450000,  '1 month', true, 8),
  ('61e989f20e69308aa37a7a9f', 'mtn-20gb-30d',  'MTN 20GB Monthly',    750000,  '1 month', true, 9),
  ('61e989f20e69308aa37a7a9f', 'mtn-40gb-30d',  'MTN 40GB Monthly',    1100000, '1 month', true, 10),
  -- Airtel
  ('61e98a4dbce8e444a4976651', 'airtel-75mb-1d',  'Airtel 75MB Daily',    7500,   '1 day',   true, 1),
  ('61e98a4dbce8e444a4976651', 'airtel-200mb-3d', 'Airtel 200MB 3-Day',   20000,  '3 days',  true, 2),
  ('61e98a4dbce8e444a4976651', 'airtel-1gb-1d',   'Airtel 1GB Daily',     35000,  '1 day',   true, 3),
  ('61e98a4dbce8e444a4976651', 'airtel-1gb-7d',   'Airtel 1GB Weekly',    80000,  '1 week',  true, 4),
  ('61e98a4dbce8e444a4976651', 'airtel-2gb-30d',  'Airtel 2GB Monthly',   150000, '1 month', true, 5),
  ('61e98a4dbce8e444a4976651', 'airtel-3gb-30d',  'Airtel 3GB Monthly',   200000, '1 month', true, 6),
  ('61e98a4dbce8e444a4976651', 'airtel-10gb-30d', 'Airtel 10GB Monthly',  400000, '1 month', true, 7),
  ('61e98a4dbce8e444a4976651', 'airtel-18gb-30d', 'Airtel 18GB Monthly',  600000, '1 month', true, 8),
  -- Etisalat (9mobile)
  ('61e98a67bce8e444a4976654', '9m-100mb-1d',  '9mobile 100MB Daily',    10000,  '1 day',   true, 1),
  ('61e98a67bce8e444a4976654', '9m-650mb-1d',  '9mobile 650MB Daily',    20000,  '1 day',   true, 2),
  ('61e98a67bce8e444a4976654', '9m-1gb-7d',    '9mobile 1GB Weekly',     60000,  '1 week',  true, 3),
  ('61e98a67bce8e444a4976654', '9m-2gb-30d',   '9mobile 2GB Monthly',    120000, '1 month', true, 4),
  ('61e98a67bce8e444a4976654', '9m-4500mb-30d', '9mobile 4.5GB Monthly', 200000, '1 month', true, 5),
  ('61e98a67bce8e444a4976654', '9m-11gb-30d',  '9mobile 11GB Monthly',   400000, '1 month', true, 6),
  ('61e98a67bce8e444a4976654', '9m-15gb-30d',  '9mobile 15GB Monthly',   500000, '1 month', true, 7),
  -- Glo
  ('61e98a31bce8e444a497664e', 'glo-125mb-1d',  'Glo 125MB Daily',    10000,  '1 day',   true, 1),
  ('61e98a31bce8e444a497664e', 'glo-1gb-1d',    'Glo 1GB Daily',      30000,  '1 day',   true, 2),
  ('61e98a31bce8e444a497664e', 'glo-1500mb-7d', 'Glo 1.5GB Weekly',   50000,  '1 week',  true, 3),
  ('61e98a31bce8e444a497664e', 'glo-2600mb-30d', 'Glo 2.6GB Monthly', 100000, '1 month', true, 4),
  ('61e98a31bce8e444a497664e', 'glo-5gb-30d',   'Glo 5GB Monthly',    150000, '1 month', true, 5),
  ('61e98a31bce8e444a497664e', 'glo-10gb-30d',  'Glo 10GB Monthly',   300000, '1 month', true, 6),
  ('61e98a31bce8e444a497664e', 'glo-18gb-30d',  'Glo 18GB Monthly',   500000, '1 month', true, 7),
  ('61e98a31bce8e444a497664e', 'glo-32gb-30d',  'Glo 32GB Monthly',   800000, '1 month', true, 8),
  -- MTN corporate data
  ('6502e9a236208a4de6d1b2ac', 'mtncg-500mb-30d', 'MTN Corporate 500MB Monthly', 30000,   '1 month', true, 1),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-1gb-30d',   'MTN Corporate 1GB Monthly',   55000,   '1 month', true, 2),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-2gb-30d',   'MTN Corporate 2GB Monthly',   110000,  '1 month', true, 3),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-3gb-30d',   'MTN Corporate 3GB Monthly',   165000,  '1 month', true, 4),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-5gb-30d',   'MTN Corporate 5GB Monthly',   275000,  '1 month', true, 5),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-10gb-30d',  'MTN Corporate 10GB Monthly',  550000,  '1 month', true, 6),
  ('6502e9a236208a4de6d1b2ac', 'mtncg-20gb-30d',  'MTN Corporate 20GB Monthly',  1100000, '1 month', true, 7);

-- Cable bouquets. Each list ends with the Top Up, whose amount the buyer chooses.
INSERT INTO vas_products (category_id, bundle_code, name, amount_kobo, duration, is_amount_fixed, position) VALUES
  -- DStv: bouquets db1..db6, then bouquet + add-on combinations (bouquet code|add-on code).
  ('61e98b3562d9b6a917f9302a', 'db1',     'DStv Padi',                   360000,  '1 month',    true,  1),
  ('61e98b3562d9b6a917f9302a', 'db2',     'DStv Yanga',                  510000,  '1 month',    true,  2),
  ('61e98b3562d9b6a917f9302a', 'db3',     'DStv Confam',                 930000,  '1 month',    true,  3),
  ('61e98b3562d9b6a917f9302a', 'db4',     'DStv Compact',                1570000, '1 month',    true,  4),
  ('61e98b3562d9b6a917f9302a', 'db5',     'DStv Compact Plus',           2500000, '1 month',    true,  5),
  ('61e98b3562d9b6a917f9302a', 'db6',     'DStv Premium',                3700000, '1 month',    true,  6),
  ('61e98b3562d9b6a917f9302a', 'db1|da1', 'DStv Padi + Movies',          710000,  '1 month',    true,  7),
  ('61e98b3562d9b6a917f9302a', 'db2|da1', 'DStv Yanga + Movies',         860000,  '1 month',    true,  8),
  ('61e98b3562d9b6a917f9302a', 'db3|da1', 'DStv Confam + Movies',        1280000, '1 month',    true,  9),
  ('61e98b3562d9b6a917f9302a', 'db4|da2', 'DStv Compact + XtraView',     2070000, '1 month',    true,  10),
  ('61e98b3562d9b6a917f9302a', 'db4|da4', 'DStv Compact + French Touch', 2270000, '1 month',    true,  11),
  ('61e98b3562d9b6a917f9302a', 'db5|da3', 'DStv Compact Plus + HDPVR Access', 3000000, '1 month', true, 12),
  ('61e98b3562d9b6a917f9302a', 'db5|da5', 'DStv Compact Plus + Asia',    3740000, '1 month',    true,  13),
  ('61e98b3562d9b6a917f9302a', 'db6|da2', 'DStv Premium + XtraView',     4200000, '1 month',    true,  14),
  ('61e98b3562d9b6a917f9302a', 'db6|da6', 'DStv Premium + French Plus', 6150000, '1 month',    true,  15),
  ('61e98b3562d9b6a917f9302a', 'db6|da7', 'DStv Premium + French Plus + XtraView', 6650000, '1 month', true, 16),
  ('61e98b3562d9b6a917f9302a', 'TOP_UP',  'Top Up',                      NULL,    '1 one-time', false, 17),
  -- GOtv
  ('61e98b6462d9b6a917f9302d', 'gb1',    'Gotv Supa+',    1390000, '1 month',    true,  1),
  ('61e98b6462d9b6a917f9302d', 'gb2',    'GOtv Supa',     1250000, '1 month',    true,  2),
  ('61e98b6462d9b6a917f9302d', 'gb3',    'GOtv Max',      1100000, '1 month',    true,  3),
  ('61e98b6462d9b6a917f9302d', 'gb4',    'GOtv Jolli',    960000,  '1 month',    true,  4),
  ('61e98b6462d9b6a917f9302d', 'gb5',    'GOtv Jinja',    850000,  '1 month',    true,  5),
  ('61e98b6462d9b6a917f9302d', 'gb6',    'GOtv Smallie',  750000,  '1 month',    true,  6),
  ('61e98b6462d9b6a917f9302d', 'gb7',    'GOtv Open',     660000,  '1 month',    true,  7),
  ('61e98b6462d9b6a917f9302d', 'TOP_UP', 'Top Up',        NULL,    '1 one-time', false, 8),
  -- StarTimes: antenna (terrestrial) and dish (satellite) bouquets, weekly and monthly.
  ('61e98b8a90dbbfc905f48f07', 'sb1',    'StarTimes Nova (Antenna)',    60000,   '1 week',     true,  1),
  ('61e98b8a90dbbfc905f48f07', 'sb2',    'StarTimes Nova (Dish)',       70000,   '1 week',     true,  2),
  ('61e98b8a90dbbfc905f48f07', 'sb3',    'StarTimes Basic (Antenna)',   130000,  '1 week',     true,  3),
  ('61e98b8a90dbbfc905f48f07', 'sb4',    'StarTimes Smart (Dish)',      160000,  '1 week',     true,  4),
  ('61e98b8a90dbbfc905f48f07', 'sb5',    'StarTimes Nova (Antenna)',    190000,  '1 month',    true,  5),
  ('61e98b8a90dbbfc905f48f07', 'sb6',    'StarTimes Classic (Antenna)', 200000,  '1 week',     true,  6),
  ('61e98b8a90dbbfc905f48f07', 'sb7',    'StarTimes Nova (Dish)',       210000,  '1 month',    true,  7),
  ('61e98b8a90dbbfc905f48f07', 'sb8',    'StarTimes Super (Antenna)',   270000,  '1 week',     true,  8),
  ('61e98b8a90dbbfc905f48f07', 'sb9',    'StarTimes Super (Dish)',      280000,  '1 week',     true,  9),
  ('61e98b8a90dbbfc905f48f07', 'sb10',   'StarTimes Basic (Antenna)',   400000,  '1 month',    true,  10),
  ('61e98b8a90dbbfc905f48f07', 'sb11',   'StarTimes Smart (Dish)',      510000,  '1 month',    true,  11),
  ('61e98b8a90dbbfc905f48f07', 'sb12',   'StarTimes Classic (Antenna)', 600000,  '1 month',    true,  12),
  ('61e98b8a90dbbfc905f48f07', 'sb13',   'StarTimes Chinese (Dish)',    630000,  '1 week',     true,  13),
  ('61e98b8a90dbbfc905f48f07', 'sb14',   'StarTimes Super (Antenna)',   800000,  '1 month',    true,  14),
  ('61e98b8a90dbbfc905f48f07', 'sb15',   'StarTimes Super (Dish)',      840000,  '1 month',    true,  15),
  ('61e98b8a90dbbfc905f48f07', 'sb16',   'StarTimes Chinese (Antenna)', 1400000, '1 month',    true,  16),
  ('61e98b8a90dbbfc905f48f07', 'sb17',   'StarTimes Chinese (Dish)',    1900000, '1 month',    true,  17),
  ('61e98b8a90dbbfc905f48f07', 'TOP_UP', 'Top Up',                      NULL,    '1 one-time', false, 18);
