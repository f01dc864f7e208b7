// `node log-cap-main.js <log> <capBytes>`: run by a keeper whose log went over its cap, so the
// cap holds while no hub runs. Short-lived: the keeper itself stays a small shell.
import { enforceLogCap } from './keeper/log-cap.js';

const [file, cap] = process.argv.slice(2);
const capBytes = Number(cap);
if (file !== undefined && Number.isInteger(capBytes) && capBytes > 0) enforceLogCap(file, capBytes);
