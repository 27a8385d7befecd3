export { openDatabase, type Database, type OpenDatabaseOptions, type ReadDb, type ReadStatement } from './db';
export { migrate, type Migration } from './migrate';
export { migrations } from './migrations';
export * from './documents';
export * from './chunks';
export * from './mentions';
export * from './runs';
export { statement } from './statements';
export { loadSettingValues, saveSettingValues } from './settings';
