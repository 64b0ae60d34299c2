/** A `tel:` address of a displayed number (400-807-0807 → tel:4008070807), so a phone dials it on a tap. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** A `mailto:` address of a displayed e-mail address. */
export function mailtoHref(email: string): string {
  return `mailto:${email.trim()}`;
}
