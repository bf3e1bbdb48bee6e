import type { ReactNode, Ref } from 'react'

/**
 * A modal dialog's box over its backdrop: named for screen readers (by its words or its heading's id), and a click
 * inside stops here, so only a click on the backdrop closes it.
 */
export function DialogBox({
  ref,
  className,
  label,
  labelledBy,
  children
}: {
  ref?: Ref<HTMLDivElement>
  className: string
  label?: string
  labelledBy?: string
  children: ReactNode
}) {
  return (
    <div
      ref={ref}
      className={className}
      role="dialog"
      aria-modal="true"
      aria-label={label}
      aria-labelledby={labelledBy}
      onClick={(e) => e.stopPropagation()}
    >
      {children}
    </div>
  )
}
