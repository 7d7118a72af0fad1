import { z } from "zod/mini";
// The English messages alone: the index of all locales would load every language.
import en from "zod/v4/locales/en.js";

// zod/mini ships without messages, which keeps them out of the web app's bundle. The server names
// what is wrong with a request body or a setting in English: its 400 answers and configuration errors.
z.config(en());
