/**
 * The scenario format's front door: the text reader, the validator (scenario-document-validator.ts)
 * and error formatting in one import. The page imports the validator and the JSON reader
 * (scenario-json-text.ts) apart, so that the YAML parser loads only when a YAML text comes.
 */
export * from './scenario-document-validator.ts';
export { parseScenarioText, type ScenarioFormat, type ScenarioText } from './scenario-text.ts';
