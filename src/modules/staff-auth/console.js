// The console's one script: passkeys. A form marked `data-passkey` stays hidden unless this runs in a
// browser that can use passkeys; the pages work without it (passwords, plain forms and links).
// The form's fields go to `data-options` for the authenticator's options, the authenticator's answer
// and the fields go to the form's action, and the browser goes where the server says.
(() => {
  const webauthn = window.SimpleWebAuthnBrowser;
  if (!webauthn?.browserSupportsWebAuthn()) return;

  const post = async (url, body) => {
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.message || '');
    return answer;
  };

  for (const form of document.querySelectorAll('form[data-passkey]')) {
    const status = form.querySelector('[role="status"]');
    form.hidden = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const fields = Object.fromEntries(new FormData(form));
      const button = form.querySelector('button');
      button.disabled = true;
      status.textContent = '';
      try {
        const { options } = await post(form.dataset.options, fields);
        const response =
          form.dataset.passkey === 'register'
            ? await webauthn.startRegistration({ optionsJSON: options })
            : await webauthn.startAuthentication({ optionsJSON: options });
        const { location } = await post(form.action, { ...fields, response });
        window.location.assign(location);
      } catch (error) {
        // A cancelled prompt is not an error worth more than a word; the server's refusals say why.
        status.textContent = error?.name === 'NotAllowedError' ? 'Cancelled.' : error?.message || form.dataset.failure;
        button.disabled = false;
      }
    });
  }
})();
