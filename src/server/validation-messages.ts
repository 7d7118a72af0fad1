import { z } from "zod/mini";
import { en } from "zod/locales";

// zod/mini ships without messages, which keeps them out of the web app's bundle. The server names
// what is wrong with a request body or a setting in English: its 400 answers and configuration errors.
z.config(en());
