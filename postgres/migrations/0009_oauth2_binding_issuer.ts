import type { Migration } from './types.js';

/**
 * OAuth2 bindings remember who vouched for them: the provider kind and issuer of the instance
 * at the time of binding (`https://github.com` for GitHub). A binding signs in only while the
 * instance as configured now has the same kind and issuer, so pointing an instance name at
 * another identity provider cannot sign in the accounts bound at the old one.
 *
 * Existing rows are stamped from `oauth2.providers` as stored when this runs (the value
 * the service was using; a row in `settings` is the only place it lives). Rows of an instance
 * that is not configured then stay NULL and never sign in again: nothing can tell which
 * issuer vouched for them. Their owners sign in another way and bind again.
 */
export const migration0009: Migration = {
  id: '0009_oauth2_binding_issuer',
  up: `
    ALTER TABLE oauth2_bindings
      ADD COLUMN provider_kind text CHECK (provider_kind IN ('github', 'oidc')),
      ADD COLUMN issuer text,
      ADD CHECK ((provider_kind IS NULL) = (issuer IS NULL));

    UPDATE oauth2_bindings AS b
       SET provider_kind = CASE WHEN p.entry ? 'github' THEN 'github' ELSE 'oidc' END,
           issuer = CASE WHEN p.entry ? 'github' THEN 'https://github.com' ELSE p.entry->'oidc'->>'issuer' END
      FROM settings AS s,
           LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(s.value) = 'array' THEN s.value ELSE '[]'::jsonb END) AS p(entry)
     WHERE s.key = 'oauth2.providers'
       AND p.entry->>'instanceName' = b.instance_name
       AND (p.entry ? 'github' OR p.entry->'oidc'->>'issuer' IS NOT NULL);
  `,
};
