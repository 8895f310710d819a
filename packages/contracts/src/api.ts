/**
 * Every HTTP path of the API, shared by server routes, the web client and the tests.
 * The spec names operations, not paths (spec 2 §7); these are ours.
 */
export const API = {
  health: '/api/health',
  docs: '/api/docs',
  auth: {
    login: '/api/auth/login',
    logout: '/api/auth/logout',
    info: '/api/auth/info',
  },
  profile: {
    info: '/api/profile',
    password: '/api/profile/password',
  },
  system: {
    config: '/api/system/config',
  },
  org: {
    users: '/api/org/users',
    user: '/api/org/users/:id',
    userStatus: '/api/org/users/:id/status',
    userPassword: '/api/org/users/:id/password',
    departments: '/api/org/departments',
    department: '/api/org/departments/:id',
    roles: '/api/org/roles',
    role: '/api/org/roles/:id',
    permissions: '/api/org/permissions',
  },
  dict: {
    parents: '/api/dict/parents',
    children: '/api/dict/children',
    dicts: '/api/dict',
    dict: '/api/dict/:id',
    remove: '/api/dict/remove',
  },
} as const;

/** Fills `:name` segments of a path. */
export function apiPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}
