// A Web Worker that tries counters of a proof-of-work challenge (ALTCHA's solver), off the page's
// thread: the visitor types while it works. The key derivation is the browser's WebCrypto PBKDF2
// (the package's own worker entry derives with Node's crypto).
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { handler } from 'altcha-lib/workers/shared';

handler({ deriveKey });
