import { skipToken, useQuery } from '@tanstack/react-query'
import type { ExportProgress } from '../../../shared/ipc/channels/export'
import { queryClient } from './query-client'

/**
 * An export's progress, as main's `export.progress` events tell it (bridge/events.ts applies them). It is kept by id in
 * the query cache: events travel apart from the call's answer, and a small export can end before its answer arrives.
 */
const progressKey = (exportId: string | null) => ['export.progress', exportId] as const

export const applyExportProgress = (progress: ExportProgress): void =>
  void queryClient.setQueryData(progressKey(progress.exportId), progress)

/** An export main has just started: running from 0, unless its events came first. */
export const startedExport = (progress: ExportProgress): void =>
  void queryClient.setQueryData<ExportProgress>(progressKey(progress.exportId), (told) => told ?? progress)

/** The progress of one export (null: none started, or nothing told yet). */
export const useExportProgress = (exportId: string | null): ExportProgress | null =>
  useQuery<ExportProgress>({ queryKey: progressKey(exportId), queryFn: skipToken, staleTime: Infinity }).data ?? null
