/**
 * The API areas and their prefixes (spec 3 section 7), one copy for the server (which mounts each area's routes
 * there) and the console (which calls them).
 */
export const API = {
  uam: '/uam/api/v1',
  portal: '/portal/api/v1',
  oms: '/oms/api/v1',
  bis: '/bis/api/v1',
  cns: '/cns/api/v1',
  dxs: '/dxs/api/v1',
} as const;
export type ApiArea = keyof typeof API;
