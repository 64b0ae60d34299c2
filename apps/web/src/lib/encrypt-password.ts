/**
 * Spec section 5, "Passwords are encoded before sending": RSA-OAEP with SHA-256 through WebCrypto,
 * under the server's public key (SPKI DER, base64); the answer is the ciphertext in base64.
 */
export async function importPasswordKey(spkiBase64: string): Promise<CryptoKey> {
  const der = Uint8Array.from(atob(spkiBase64), (c) => c.charCodeAt(0));
  return crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
}

export async function encryptPassword(key: CryptoKey, password: string): Promise<string> {
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password)));
  let binary = '';
  for (const byte of cipher) binary += String.fromCharCode(byte);
  return btoa(binary);
}
