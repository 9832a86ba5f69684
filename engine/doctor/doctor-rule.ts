import type { DoctorDocuments } from './doctor-documents.ts';
import type { Finding } from './finding.ts';

/**
 * One piece of the seed articles' advice: reads the documents and says what is wrong, or nothing.
 * A rule that lacks the figures it needs (a saved response holds one endpoint) says nothing.
 */
export interface DoctorRule {
  /** the rule's file name */
  readonly id: string;
  diagnose(documents: DoctorDocuments): Finding[];
}
