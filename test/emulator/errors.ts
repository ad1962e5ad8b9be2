/** A failure that the server turns into the error envelope `{status, error, requestId}`. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

export const badRequest = (message: string): ApiFailure => new ApiFailure(400, message);
export const notFound = (message: string): ApiFailure => new ApiFailure(404, message);
export const conflict = (message: string): ApiFailure => new ApiFailure(409, message);
