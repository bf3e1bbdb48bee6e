import { randomBytes } from 'node:crypto'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import type { ExportProgress, ExportStarted, TransactionsExportInput } from '../../../shared/ipc/channels/export'
import { AppError } from '../../infra/app-error'
import { exportTransactionsCsv, type TransactionPages } from './transaction-export'

interface Job {
  controller: AbortController
  progress: ExportProgress
  file: string
}

/**
 * Running and finished CSV exports of one backend. Each runs in the background, reports its progress as events, and
 * can be cancelled. Where the file goes is the host's: a save dialog in the desktop app (`chooseFile`), or, in browser
 * mode, a private folder from which the page downloads it exactly once (`takeDownload`).
 */
export class ExportJobs {
  private readonly jobs = new Map<string, Job>()

  constructor(
    private readonly options: {
      /** Browser mode's folder of finished exports waiting for their download. */
      downloadDir: string
      /** Desktop: asks where to save (null: the operator dismissed the dialog). Absent: browser mode's download. */
      chooseFile?: (suggestedName: string) => Promise<string | null>
      emit: (progress: ExportProgress) => void
      log: (message: string) => void
    }
  ) {}

  async startTransactions(
    source: TransactionPages,
    input: TransactionsExportInput,
    now = new Date()
  ): Promise<ExportStarted> {
    const fileName = `paydesk-transactions-${now.toISOString().replace(/[:.]/g, '-')}.csv`
    const total = await source.countTransactions(input.filter)
    const delivery = this.options.chooseFile ? 'file' : 'download'
    let file: string
    if (this.options.chooseFile) {
      const chosen = await this.options.chooseFile(fileName)
      if (chosen === null) return { exportId: null, fileName, delivery, total }
      file = chosen
    } else {
      await mkdir(this.options.downloadDir, { recursive: true, mode: 0o700 })
      file = path.join(this.options.downloadDir, `${randomBytes(12).toString('base64url')}.csv`)
    }
    const exportId = randomBytes(18).toString('base64url')
    const job: Job = {
      controller: new AbortController(),
      file,
      progress: { exportId, state: 'running', written: 0, total, fileName: path.basename(file), delivery }
    }
    if (delivery === 'download') job.progress.fileName = fileName
    this.jobs.set(exportId, job)
    const report = (patch: Partial<ExportProgress>) => {
      job.progress = { ...job.progress, ...patch }
      this.options.emit(job.progress)
    }
    void exportTransactionsCsv({
      source,
      filter: input.filter,
      sort: input.sort,
      file,
      signal: job.controller.signal,
      onProgress: ({ written, total }) => report({ written, total })
    }).then(
      ({ written, total }) => {
        report({ state: 'done', written, total })
        // A desktop export is finished once written; a download waits for the page.
        if (delivery === 'file') this.jobs.delete(exportId)
      },
      (error: unknown) => {
        this.jobs.delete(exportId)
        if (job.controller.signal.aborted) return report({ state: 'cancelled' })
        this.options.log(`export failed: ${error instanceof Error ? error.message : 'error'}`)
        report({ state: 'failed', message: 'The export could not be written. Nothing was saved.' })
      }
    )
    return { exportId, fileName: job.progress.fileName, delivery, total }
  }

  cancel(exportId: string): null {
    const job = this.jobs.get(exportId)
    if (!job) throw new AppError('NOT_FOUND', 'No export with this id is running.')
    if (job.progress.state === 'done') {
      // A finished download nobody will fetch now.
      this.jobs.delete(exportId)
      void rm(job.file, { force: true })
      this.options.emit({ ...job.progress, state: 'cancelled' })
    } else job.controller.abort()
    return null
  }

  /** A finished browser-mode export, handed over once: the caller streams it and then calls `done` to delete it. */
  takeDownload(exportId: string): { file: string; fileName: string; done: () => Promise<void> } | null {
    const job = this.jobs.get(exportId)
    if (!job || job.progress.delivery !== 'download' || job.progress.state !== 'done') return null
    this.jobs.delete(exportId)
    return { file: job.file, fileName: job.progress.fileName, done: () => rm(job.file, { force: true }) }
  }

  /** Stops what runs and deletes downloads nobody fetched. */
  async close(): Promise<void> {
    for (const job of this.jobs.values()) job.controller.abort()
    this.jobs.clear()
    await rm(this.options.downloadDir, { recursive: true, force: true })
  }
}
