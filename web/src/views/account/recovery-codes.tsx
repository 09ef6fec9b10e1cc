/** Recovery codes, shown once after they are made: the server keeps only their hashes. */
export function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  return (
    <div class="notice account-codes" role="status">
      <p class="notice-title">Save your recovery codes now</p>
      <p>Each one signs you in once if you lose your authenticator app. They are not shown again.</p>
      <ul class="account-code-list" aria-label="Recovery codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" onClick={props.onDone}>
        I have saved them
      </button>
    </div>
  );
}
