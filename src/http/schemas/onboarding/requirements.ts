import { Type } from 'typebox';

// A customer's requirements (docs/onboarding-links.md#requirements), in get-user and get-entity views and requirements.updated.

const Names = (description: string) => Type.Array(Type.String(), { description });

export const RequirementsSchema = Type.Object(
  {
    currentlyDue: Names(
      'Requirements still to give: birthDate, nationality, residentialAddress, document.identity, document.proofOfAddress; for entities entityInfo field paths, document.companyDetails, document.ownershipStructure, document.sourceOfFunds, document.proofOfAddress, associatedPersons.representative (no representative yet), and each associated person’s as <beneficiaryId>.<requirement> (e.g. <beneficiaryId>.document.identity)',
    ),
    pastDue: Names('Of currentlyDue, those verification waits for: an operator asked for them again (resubmission_requested)'),
    pendingVerification: Names('Requirements given and being verified (under review)'),
    errors: Type.Array(
      Type.Object(
        { requirement: Type.String(), reason: Type.String({ description: 'Why what was given does not meet it (the document’s errors)' }) },
        { additionalProperties: false },
      ),
      { description: 'Why a requirement in currentlyDue was refused' },
    ),
  },
  { additionalProperties: false, title: 'Requirements', description: 'What the customer owes: when currentlyDue is not empty, a new onboarding link lets the customer give it' },
);
