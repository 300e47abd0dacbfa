export { runCommandLine } from './run-cli';
export { fail, isCatalogueCommand, runCommand, type AdminApi, type CliIo } from './admin-commands';
export { adminApiAt } from './admin-client';
export { runAdapterCommand } from './adapter-commands';
export {
  CREDENTIAL_FILE,
  newLocalAdminToken,
  readLocalAdminCredential,
  removeLocalAdminCredential,
  writeLocalAdminCredential,
} from './local-credential';
