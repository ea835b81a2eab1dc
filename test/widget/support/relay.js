// The other side of the embed protocol, played by the test: loaded in a frame on whatever origin the test picks,
// it reports each message its parent sends it, posts to its parent whatever the parent asks it to, and can
// navigate itself elsewhere (as a checkout frame does when it opens the 3-D Secure page).
window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const data = event.data;
  if (data && data.relay !== undefined) {
    window.parent.postMessage(data.relay, '*');
    window.parent.postMessage({ relayed: true }, '*');
  } else if (data && data.navigate) {
    window.location.href = data.navigate;
  } else {
    window.parent.postMessage({ received: data, origin: event.origin }, '*');
  }
});
window.parent.postMessage({ relayLoaded: window.location.origin }, '*');
