/** A full-width band that never scrolls away: nobody should mistake production for a sandbox. */
export function ProductionBand() {
  return (
    <div className="production-band" role="status" aria-label="Production profile: real money">
      PRODUCTION · real money moves from this profile
    </div>
  )
}
