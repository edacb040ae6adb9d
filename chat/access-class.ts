export type AccessClass = 'everyone' | 'operations' | 'accounting' | 'admins';
