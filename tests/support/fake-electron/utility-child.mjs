// Loaded first in every process the fake's utilityProcess.fork starts (`--import`): the child sees what an Electron
// utility process sees, not a Node fork, so an entry that only works as a Node fork fails here as it would in the app.
// Underneath it is a Node fork (the fake has no Chromium service launcher); its IPC channel carries the messages.
import { EventEmitter } from 'node:events'

const send = process.send?.bind(process)
if (!send) throw new Error('fake-electron: utility-child.mjs runs only in a process the fake forked')

// docs/api/process.md, process.parentPort: "A Electron.ParentPort property if this is a UtilityProcess".
// docs/api/parent-port.md: parentPort is an EventEmitter; 'message' returns `messageEvent` { data, ports }, and
// "Messages received on this port will be queued up until a handler is registered for this event";
// parentPort.postMessage(message) "Sends a message from the process to its parent".
const queued = []
const parentPort = new EventEmitter()
parentPort.postMessage = (message) => void send(message)
process.on('message', (data) => {
  const event = { data, ports: [] }
  if (parentPort.listenerCount('message') > 0) parentPort.emit('message', event)
  else queued.push(event)
})
parentPort.on('newListener', (name) => {
  if (name !== 'message') return
  // After the listener is added (newListener fires before), in order.
  queueMicrotask(() => {
    for (const event of queued.splice(0)) parentPort.emit('message', event)
  })
})
process.parentPort = parentPort

// docs/api/utility-process.md: utilityProcess "provides the equivalent of child_process.fork API from Node.js but
// instead uses Services API from Chromium to launch the child process": the child has no Node IPC channel, so no
// process.send (an entry that talks through it would be talking to nobody in the app).
delete process.send

// Electron ends its utility processes with the app; here the app is the fake's main process: when it is gone (its end
// of the channel closed), the child goes too, instead of lingering as an orphan.
process.on('disconnect', () => process.exit(0))
