// Runs before arktype loads (see ark.ts for why jitless).
import { configure } from "arktype/config";

configure({ jitless: true });
