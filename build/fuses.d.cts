export declare const fuses: Readonly<Record<string, boolean>>
