import { runElectronApp } from './electron/app'

runElectronApp()
