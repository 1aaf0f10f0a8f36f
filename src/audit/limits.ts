/**
 * The limits of the audit log's routes (docs/architecture.md "Input models"). Imports nothing, so
 * the dashboard's page reads them without the schemas.
 */

export const AUDIT_PAGE_SIZE_DEFAULT = 50;
export const AUDIT_PAGE_SIZE_MAX = 200;
/** The longest action name is far shorter; this only bounds the query parameter. */
export const AUDIT_ACTION_MAX_LENGTH = 40;
/** Entries are kept 400 days (docs/dashboard-api.md "Audit log"). */
export const AUDIT_RETENTION_DAYS = 400;
