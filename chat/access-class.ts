/**
 * Who may see an answer, and where: every command (and every scheduled kind) declares one class, so that nothing
 * shows accounting data or changes an organization's connection without saying so.
 * - `everyone`: help and what describes the connection; shown to anyone, anywhere the bot answers;
 * - `operations`: the laundry's operational data (signals, shortages, fill rates, tickets, deliveries);
 * - `accounting`: balances, invoices and budgets; shown only where an admin allowed accounting answers
 *   (connections/access.ts);
 * - `admins`: changes to the organization's connection and access rules; only for the admins the platform names
 *   (connections/connection-commands.ts `ConnectionPlatform.isAdmin`).
 */
export type AccessClass = 'everyone' | 'operations' | 'accounting' | 'admins';
