// The upload form's progress: a form marked `data-upload-progress` (naming its status element) is
// sent by XMLHttpRequest, whose upload events say how much has been sent. The form works without
// this script: it is an ordinary multipart form. The server's answer is shown as a page would be: a
// redirect (the document's page) is followed, a refusal (the form with its errors) replaces the page.
(() => {
  const form = document.querySelector('form[data-upload-progress]');
  if (!form || typeof XMLHttpRequest === 'undefined' || typeof FormData === 'undefined') return;
  const status = document.getElementById(form.dataset.uploadProgress);
  const bar = status?.querySelector('progress');
  const text = status?.querySelector('span');
  if (!status || !bar || !text) return;

  /** The page the server answered with, in place of this one (its own scripts do not run: the form then posts as it is). */
  const show = (html) => {
    const page = new DOMParser().parseFromString(html, 'text/html');
    document.title = page.title;
    document.body.replaceWith(document.adoptNode(page.body));
    const focus = document.querySelector('.error-summary') ?? document.getElementById('main');
    focus?.setAttribute('tabindex', '-1');
    focus?.focus();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    const request = new XMLHttpRequest();
    request.open('POST', form.action);
    request.upload.addEventListener('progress', (progress) => {
      if (!progress.lengthComputable) return;
      const percent = Math.floor((100 * progress.loaded) / progress.total);
      bar.value = percent;
      text.textContent = `${percent}% sent`;
    });
    request.addEventListener('load', () => {
      // A redirect was followed: its page is where the browser goes.
      if (request.responseURL && new URL(request.responseURL).pathname !== new URL(form.action).pathname) {
        text.textContent = 'Sent.';
        window.location.assign(request.responseURL);
      } else show(request.responseText);
    });
    request.addEventListener('error', () => {
      text.textContent = 'The upload failed: the connection was lost. Try again.';
      if (button) button.disabled = false;
    });
    status.hidden = false;
    bar.value = 0;
    text.textContent = 'Sending…';
    if (button) button.disabled = true;
    request.send(new FormData(form));
  });
})();
