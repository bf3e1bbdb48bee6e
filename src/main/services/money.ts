/**
 * Integer minor units as a decimal string, for sentences in notifications and decision records (the renderer formats
 * its own). Pure integer/string arithmetic: no floating point touches an amount.
 */
export function formatMinor(amount: number, currency: string, decimals = 2): string {
  if (!Number.isSafeInteger(amount)) return `${amount} (minor units) ${currency}`
  const negative = amount < 0
  const digits = String(Math.abs(amount)).padStart(decimals + 1, '0')
  const whole = decimals > 0 ? digits.slice(0, -decimals) : digits
  const frac = decimals > 0 ? `.${digits.slice(-decimals)}` : ''
  return `${negative ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac} ${currency}`
}
